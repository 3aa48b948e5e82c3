"""An MNIST-style classifier as a PyTorch tutorial writes it, on scikit-learn's 8x8 digits
(bundled with scikit-learn: nothing is downloaded): a Dataset and DataLoaders, a small CNN,
CrossEntropyLoss, SGD with momentum, a LambdaLR warm-up followed by StepLR, and an evaluation
loop under torch.no_grad() that reports loss and accuracy per epoch.

examples/port/digits_classifier.spl is this program ported to Simple line by line;
tests/examples/check_ports.py runs both and compares what they print.
Run: .venv/bin/python examples/port/digits_classifier.py"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader, random_split
from sklearn.datasets import load_digits

BATCH_SIZE = 32
EPOCHS = 3
LR = 0.1
WARMUP = 10  # optimizer steps of linear warm-up


class DigitsDataset(Dataset):
    def __init__(self, images, labels):
        self.images = torch.tensor(images / 16.0, dtype=torch.float32).unsqueeze(1)
        self.labels = torch.tensor(labels, dtype=torch.long)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.dropout = nn.Dropout(0.25)
        self.fc1 = nn.Linear(32 * 2 * 2, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = self.dropout(F.relu(self.fc1(x)))
        return self.fc2(x)


def train(model, loader, optimizer, scheduler, criterion):
    model.train()
    running_loss = 0.0
    for images, labels in loader:
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        scheduler.step()
        running_loss += loss.item() * images.size(0)
    return running_loss / len(loader.dataset)


def evaluate(model, loader, criterion):
    model.eval()
    total_loss = 0.0
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            outputs = model(images)
            total_loss += criterion(outputs, labels).item() * images.size(0)
            correct += (outputs.argmax(dim=1) == labels).sum().item()
    return total_loss / len(loader.dataset), correct / len(loader.dataset)


def main():
    torch.manual_seed(0)
    digits = load_digits()
    dataset = DigitsDataset(digits.images, digits.target)
    train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
    train_loader = DataLoader(train_set, batch_size=BATCH_SIZE, shuffle=True,
                              generator=torch.Generator().manual_seed(1))
    test_loader = DataLoader(test_set, batch_size=256)
    print(f"{len(train_set)} training images, {len(test_set)} test images, {len(train_loader)} batches per epoch")

    model = Net()
    print(model)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
    warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / WARMUP))
    decay = torch.optim.lr_scheduler.StepLR(optimizer, step_size=len(train_loader), gamma=0.7)
    scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, decay], milestones=[WARMUP])

    for epoch in range(1, EPOCHS + 1):
        train_loss = train(model, train_loader, optimizer, scheduler, criterion)
        test_loss, accuracy = evaluate(model, test_loader, criterion)
        print(f"epoch {epoch}: lr {scheduler.get_last_lr()[0]} train loss {train_loss} "
              f"test loss {test_loss} accuracy {accuracy}")


if __name__ == "__main__":
    main()
