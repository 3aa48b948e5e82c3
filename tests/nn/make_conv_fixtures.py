#!/usr/bin/env python3
"""Writes tests/nn/conv_fixtures.spl: torch.nn's convolution, pooling, flatten, upsampling and
pixel-shuffle modules and their functional API, run by Python PyTorch on the pinned wheel.

    .venv/bin/python tests/nn/make_conv_fixtures.py

Every case is named; conv_spec.spl repeats the same construction and the same random draws
in the same order and looks the references up by name in `ref_all`.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from fixtures import error_text, flat, module_case, record_first_output, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def rg(*shape, dtype=torch.float32):
    return torch.randn(*shape, dtype=dtype, requires_grad=True)


def fn_case(v, name, fn, inputs, seed=0, backward=True):
    """A functional call: inputs() drawn after the seed; the output, its shape and the
    gradients of every input tensor that requires grad (upstream weights as module_case)."""
    torch.manual_seed(seed)
    args = inputs()
    out = fn(*args)
    record_first_output(v, name, out, args, None, backward)
    return out


def module_cases(v):
    M = lambda name, make, inputs, seed: module_case(v, name, make, inputs, seed=seed)
    # --- convolutions -------------------------------------------------------------------
    M("conv1d", lambda: nn.Conv1d(3, 4, 3), lambda: [rg(2, 3, 10)], 1)
    M("conv1d_options", lambda: nn.Conv1d(4, 6, 3, stride=2, padding=2, dilation=2, groups=2), lambda: [rg(2, 4, 11)], 2)
    M("conv1d_same", lambda: nn.Conv1d(2, 3, 4, padding="same", dilation=3), lambda: [rg(1, 2, 9)], 3)
    M("conv1d_reflect", lambda: nn.Conv1d(2, 3, 3, padding=2, padding_mode="reflect"), lambda: [rg(2, 2, 8)], 4)
    M("conv1d_circular", lambda: nn.Conv1d(2, 3, 3, padding=1, padding_mode="circular"), lambda: [rg(2, 2, 6)], 5)
    M("conv2d", lambda: nn.Conv2d(3, 4, 3), lambda: [rg(2, 3, 6, 6)], 6)
    M("conv2d_options", lambda: nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2), lambda: [rg(2, 4, 7, 8)], 7)
    M("conv2d_same", lambda: nn.Conv2d(3, 2, (3, 4), padding="same", dilation=(2, 1)), lambda: [rg(1, 3, 7, 6)], 8)
    M("conv2d_valid", lambda: nn.Conv2d(2, 3, 3, padding="valid", bias=False), lambda: [rg(1, 2, 5, 5)], 9)
    M("conv2d_reflect", lambda: nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode="reflect"), lambda: [rg(2, 2, 6, 7)], 10)
    M("conv2d_replicate", lambda: nn.Conv2d(2, 3, 3, stride=2, padding=1, padding_mode="replicate"), lambda: [rg(2, 2, 7, 6)], 11)
    M("conv2d_circular", lambda: nn.Conv2d(2, 3, (3, 2), padding=(2, 1), padding_mode="circular"), lambda: [rg(1, 2, 5, 6)], 12)
    M("conv2d_same_reflect", lambda: nn.Conv2d(2, 2, 4, padding="same", padding_mode="reflect"), lambda: [rg(1, 2, 6, 5)], 13)
    M("conv2d_depthwise", lambda: nn.Conv2d(4, 8, 3, groups=4, bias=False), lambda: [rg(2, 4, 5, 5)], 14)
    M("conv2d_f64", lambda: nn.Conv2d(2, 3, 3, dtype=torch.float64), lambda: [rg(2, 2, 5, 5, dtype=torch.float64)], 15)
    M("conv2d_unbatched", lambda: nn.Conv2d(3, 2, 3), lambda: [rg(3, 5, 5)], 16)
    M("conv3d", lambda: nn.Conv3d(2, 3, 3, padding=1), lambda: [rg(1, 2, 4, 5, 4)], 17)
    M("conv3d_circular", lambda: nn.Conv3d(2, 2, (2, 3, 3), stride=(1, 2, 1), padding=1, padding_mode="circular"), lambda: [rg(1, 2, 3, 5, 4)], 18)
    M("convt1d", lambda: nn.ConvTranspose1d(3, 4, 3, stride=2, padding=1, output_padding=1), lambda: [rg(2, 3, 5)], 19)
    M("convt2d", lambda: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2), lambda: [rg(2, 4, 4, 5)], 20)
    M("convt2d_dilation", lambda: nn.ConvTranspose2d(2, 3, (3, 2), stride=(2, 3), padding=(1, 0), output_padding=(1, 2), dilation=(2, 1), bias=False), lambda: [rg(1, 2, 3, 4)], 21)
    M("convt2d_output_size", lambda: nn.ConvTranspose2d(3, 2, 3, stride=2), lambda: [rg(1, 3, 4, 4), [10, 10]], 22)
    M("convt3d", lambda: nn.ConvTranspose3d(2, 2, 2, stride=2), lambda: [rg(1, 2, 2, 3, 2)], 23)
    # --- pooling ------------------------------------------------------------------------
    M("maxpool1d", lambda: nn.MaxPool1d(3, stride=2, padding=1), lambda: [rg(2, 3, 9)], 30)
    M("maxpool2d", lambda: nn.MaxPool2d(2), lambda: [rg(2, 3, 6, 6)], 31)
    M("maxpool2d_options", lambda: nn.MaxPool2d((3, 2), stride=(2, 1), padding=1, dilation=(1, 2), ceil_mode=True), lambda: [rg(1, 2, 7, 8)], 32)
    _, out = M("maxpool2d_indices", lambda: nn.MaxPool2d(2, return_indices=True), lambda: [rg(1, 2, 4, 6)], 33)
    v["maxpool2d_indices_idx"] = out[1].reshape(-1).tolist()
    M("maxpool3d", lambda: nn.MaxPool3d(2, stride=1), lambda: [rg(1, 2, 3, 4, 3)], 34)
    M("avgpool1d", lambda: nn.AvgPool1d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False), lambda: [rg(2, 3, 8)], 35)
    M("avgpool2d", lambda: nn.AvgPool2d(2), lambda: [rg(2, 3, 6, 6)], 36)
    M("avgpool2d_options", lambda: nn.AvgPool2d((3, 2), stride=(2, 1), padding=(1, 1), ceil_mode=True, count_include_pad=False), lambda: [rg(1, 2, 7, 6)], 37)
    M("avgpool2d_divisor", lambda: nn.AvgPool2d(3, stride=2, padding=1, divisor_override=4), lambda: [rg(1, 2, 6, 6)], 38)
    M("avgpool3d", lambda: nn.AvgPool3d(2), lambda: [rg(1, 2, 4, 4, 4)], 39)
    M("lppool1d", lambda: nn.LPPool1d(2, 3, stride=2), lambda: [rg(2, 3, 9)], 40)
    M("lppool2d", lambda: nn.LPPool2d(2, (2, 3)), lambda: [rg(1, 2, 6, 6)], 41)
    M("lppool2d_p1", lambda: nn.LPPool2d(1, 2, stride=1), lambda: [rg(1, 2, 4, 4)], 42)
    M("adaptive_avg1d", lambda: nn.AdaptiveAvgPool1d(4), lambda: [rg(2, 3, 10)], 43)
    M("adaptive_avg2d", lambda: nn.AdaptiveAvgPool2d((3, None)), lambda: [rg(2, 3, 7, 5)], 44)
    M("adaptive_avg2d_int", lambda: nn.AdaptiveAvgPool2d(1), lambda: [rg(2, 3, 4, 5)], 45)
    M("adaptive_avg3d", lambda: nn.AdaptiveAvgPool3d((2, 3, 2)), lambda: [rg(1, 2, 5, 6, 4)], 46)
    M("adaptive_max1d", lambda: nn.AdaptiveMaxPool1d(3), lambda: [rg(2, 3, 8)], 47)
    _, out = M("adaptive_max2d", lambda: nn.AdaptiveMaxPool2d((2, 3), return_indices=True), lambda: [rg(1, 2, 5, 7)], 48)
    v["adaptive_max2d_idx"] = out[1].reshape(-1).tolist()
    M("adaptive_max3d", lambda: nn.AdaptiveMaxPool3d(2), lambda: [rg(1, 2, 4, 5, 3)], 49)
    # --- flatten, upsampling, pixel shuffle ---------------------------------------------
    M("flatten", lambda: nn.Flatten(), lambda: [rg(2, 3, 4, 5)], 50)
    M("flatten_range", lambda: nn.Flatten(0, 2), lambda: [rg(2, 3, 4, 5)], 51)
    M("unflatten", lambda: nn.Unflatten(1, (2, 3)), lambda: [rg(4, 6, 2)], 52)
    M("upsample_nearest", lambda: nn.Upsample(scale_factor=2), lambda: [rg(1, 2, 3, 4)], 53)
    M("upsample_bilinear", lambda: nn.Upsample(size=(5, 7), mode="bilinear"), lambda: [rg(1, 2, 3, 4)], 54)
    M("upsample_bilinear_ac", lambda: nn.Upsample(scale_factor=(1.5, 2.5), mode="bilinear", align_corners=True), lambda: [rg(1, 2, 3, 4)], 55)
    M("upsample_bicubic", lambda: nn.Upsample(scale_factor=1.7, mode="bicubic"), lambda: [rg(1, 2, 4, 5)], 56)
    M("upsample_linear", lambda: nn.Upsample(scale_factor=2.5, mode="linear", align_corners=False), lambda: [rg(2, 3, 5)], 57)
    M("upsample_trilinear", lambda: nn.Upsample(size=(3, 4, 5), mode="trilinear"), lambda: [rg(1, 2, 2, 3, 2)], 58)
    M("upsample_recompute", lambda: nn.Upsample(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True), lambda: [rg(1, 2, 4, 5)], 59)
    M("upsampling_nearest2d", lambda: nn.UpsamplingNearest2d(scale_factor=3), lambda: [rg(1, 2, 2, 3)], 60)
    M("upsampling_bilinear2d", lambda: nn.UpsamplingBilinear2d(size=(6, 8)), lambda: [rg(1, 2, 3, 4)], 61)
    M("pixelshuffle", lambda: nn.PixelShuffle(2), lambda: [rg(1, 8, 3, 3)], 62)
    M("pixelunshuffle", lambda: nn.PixelUnshuffle(2), lambda: [rg(1, 2, 6, 4)], 63)


def functional_cases(v):
    C = lambda name, fn, inputs, seed: fn_case(v, name, fn, inputs, seed=seed)
    # --- convolutions -------------------------------------------------------------------
    C("f_conv1d", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2), lambda: [rg(2, 4, 9), rg(6, 2, 3), rg(6)], 100)
    C("f_conv2d_same", lambda x, w: F.conv2d(x, w, None, 1, "same"), lambda: [rg(1, 2, 5, 6), rg(3, 2, 3, 2)], 101)
    C("f_conv2d", lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=(1, 0)), lambda: [rg(2, 3, 7, 6), rg(4, 3, 3, 3), rg(4)], 102)
    C("f_conv3d", lambda x, w: F.conv3d(x, w, padding=1), lambda: [rg(1, 2, 3, 4, 3), rg(2, 2, 3, 3, 3)], 103)
    C("f_conv_transpose1d", lambda x, w, b: F.conv_transpose1d(x, w, b, stride=3, padding=1, output_padding=2), lambda: [rg(2, 3, 4), rg(3, 2, 3), rg(2)], 104)
    C("f_conv_transpose2d", lambda x, w: F.conv_transpose2d(x, w, None, 2, 1, 1, 2, 1), lambda: [rg(1, 4, 3, 3), rg(4, 3, 3, 3)], 105)
    # --- pooling ------------------------------------------------------------------------
    C("f_max_pool1d", lambda x: F.max_pool1d(x, 3, 2, 1), lambda: [rg(2, 3, 9)], 110)
    C("f_max_pool2d", lambda x: F.max_pool2d(x, (2, 3), stride=2, padding=1, dilation=(2, 1), ceil_mode=True), lambda: [rg(1, 2, 7, 7)], 111)
    out = C("f_max_pool2d_indices", lambda x: F.max_pool2d(x, 3, stride=2, return_indices=True), lambda: [rg(1, 2, 7, 6)], 112)
    v["f_max_pool2d_indices_idx"] = out[1].reshape(-1).tolist()
    out = C("f_max_pool1d_indices", lambda x: F.max_pool1d(x, 2, return_indices=True), lambda: [rg(2, 2, 7)], 113)
    v["f_max_pool1d_indices_idx"] = out[1].reshape(-1).tolist()
    C("f_avg_pool1d", lambda x: F.avg_pool1d(x, 4, stride=3, padding=2, ceil_mode=False, count_include_pad=True), lambda: [rg(2, 3, 11)], 114)
    C("f_avg_pool2d", lambda x: F.avg_pool2d(x, 3, stride=(2, 1), padding=1, count_include_pad=False, divisor_override=5), lambda: [rg(1, 2, 6, 5)], 115)
    C("f_avg_pool3d", lambda x: F.avg_pool3d(x, (2, 2, 1), padding=(1, 0, 0)), lambda: [rg(1, 2, 3, 4, 3)], 116)
    C("f_max_pool3d", lambda x: F.max_pool3d(x, 2, stride=(1, 2, 1)), lambda: [rg(1, 2, 3, 4, 3)], 117)
    C("f_lp_pool1d", lambda x: F.lp_pool1d(x, 2, 3), lambda: [rg(2, 3, 9)], 118)
    C("f_lp_pool2d", lambda x: F.lp_pool2d(x, 2.0, (3, 2), stride=(1, 2)), lambda: [rg(1, 2, 5, 6)], 119)
    C("f_adaptive_avg_pool1d", lambda x: F.adaptive_avg_pool1d(x, 3), lambda: [rg(2, 3, 10)], 120)
    C("f_adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (None, 2)), lambda: [rg(1, 3, 5, 7)], 121)
    C("f_adaptive_avg_pool2d_int", lambda x: F.adaptive_avg_pool2d(x, 3), lambda: [rg(1, 3, 5, 7)], 122)
    C("f_adaptive_max_pool1d", lambda x: F.adaptive_max_pool1d(x, 4), lambda: [rg(2, 3, 10)], 123)
    out = C("f_adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (3, 2), return_indices=True), lambda: [rg(1, 3, 7, 5)], 124)
    v["f_adaptive_max_pool2d_idx"] = out[1].reshape(-1).tolist()
    C("f_adaptive_avg_pool3d", lambda x: F.adaptive_avg_pool3d(x, (2, None, 3)), lambda: [rg(1, 2, 4, 3, 5)], 125)
    C("f_adaptive_max_pool3d", lambda x: F.adaptive_max_pool3d(x, 2), lambda: [rg(1, 2, 4, 3, 5)], 126)
    # --- interpolate --------------------------------------------------------------------
    C("i_nearest1d", lambda x: F.interpolate(x, scale_factor=2.3), lambda: [rg(2, 3, 5)], 130)
    C("i_nearest2d_size", lambda x: F.interpolate(x, size=(5, 3)), lambda: [rg(1, 2, 3, 4)], 131)
    C("i_nearest3d", lambda x: F.interpolate(x, scale_factor=(2, 1, 1.5)), lambda: [rg(1, 2, 2, 3, 2)], 132)
    C("i_nearest_exact2d", lambda x: F.interpolate(x, scale_factor=1.6, mode="nearest-exact"), lambda: [rg(1, 2, 4, 5)], 133)
    C("i_nearest_recompute", lambda x: F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True), lambda: [rg(1, 2, 4, 5)], 134)
    C("i_linear_ac", lambda x: F.interpolate(x, size=7, mode="linear", align_corners=True), lambda: [rg(2, 3, 4)], 135)
    C("i_bilinear", lambda x: F.interpolate(x, scale_factor=(0.6, 1.4), mode="bilinear"), lambda: [rg(1, 2, 6, 5)], 136)
    C("i_bicubic_ac", lambda x: F.interpolate(x, size=(6, 7), mode="bicubic", align_corners=True), lambda: [rg(1, 2, 4, 5)], 137)
    C("i_bicubic", lambda x: F.interpolate(x, scale_factor=2.2, mode="bicubic"), lambda: [rg(1, 2, 3, 3)], 138)
    C("i_trilinear", lambda x: F.interpolate(x, scale_factor=1.5, mode="trilinear"), lambda: [rg(1, 2, 2, 3, 4)], 139)
    C("i_area_scale", lambda x: F.interpolate(x, scale_factor=0.5, mode="area"), lambda: [rg(1, 2, 7, 6)], 140)
    C("i_area_size", lambda x: F.interpolate(x, size=(3, 4), mode="area"), lambda: [rg(1, 2, 7, 6)], 141)
    C("i_bilinear_aa", lambda x: F.interpolate(x, size=(3, 4), mode="bilinear", antialias=True), lambda: [rg(1, 2, 9, 10)], 142)
    C("i_bicubic_aa", lambda x: F.interpolate(x, scale_factor=0.4, mode="bicubic", antialias=True, align_corners=True), lambda: [rg(1, 2, 9, 10)], 143)
    # --- pad ----------------------------------------------------------------------------
    C("pad_constant", lambda x: F.pad(x, (1, 2, 0, 1), value=2.5), lambda: [rg(2, 3, 4)], 150)
    C("pad_crop", lambda x: F.pad(x, [-1, 2]), lambda: [rg(2, 5)], 151)
    C("pad_constant_3d", lambda x: F.pad(x, (1, 0, 0, 2, 1, 1), "constant", -1.0), lambda: [rg(1, 2, 2, 3, 2)], 152)
    C("pad_reflect1d", lambda x: F.pad(x, (2, 3), mode="reflect"), lambda: [rg(2, 2, 5)], 153)
    C("pad_reflect2d", lambda x: F.pad(x, (1, 2, 2, 1), mode="reflect"), lambda: [rg(1, 2, 4, 5)], 154)
    C("pad_reflect3d", lambda x: F.pad(x, (1, 1, 0, 1, 1, 0), mode="reflect"), lambda: [rg(1, 2, 3, 3, 3)], 155)
    C("pad_replicate2d", lambda x: F.pad(x, (3, 0, 1, 2), mode="replicate"), lambda: [rg(1, 2, 3, 4)], 156)
    C("pad_replicate1d_unbatched", lambda x: F.pad(x, (2, 1), mode="replicate"), lambda: [rg(3, 4)], 157)
    C("pad_circular2d", lambda x: F.pad(x, (1, 2, 2, 0), mode="circular"), lambda: [rg(1, 2, 3, 4)], 158)
    C("pad_circular3d", lambda x: F.pad(x, (1, 0, 1, 1, 0, 2), mode="circular"), lambda: [rg(1, 1, 3, 3, 3)], 159)
    # --- grid_sample, affine_grid --------------------------------------------------------
    grid = lambda *shape: (torch.rand(*shape) * 2.4 - 1.2).requires_grad_()
    C("grid_bilinear", lambda x, g: F.grid_sample(x, g, align_corners=False), lambda: [rg(2, 3, 4, 5), grid(2, 3, 6, 2)], 170)
    C("grid_nearest_border", lambda x, g: F.grid_sample(x, g, mode="nearest", padding_mode="border", align_corners=False), lambda: [rg(1, 2, 4, 4), grid(1, 5, 3, 2)], 171)
    C("grid_bicubic_reflection", lambda x, g: F.grid_sample(x, g, mode="bicubic", padding_mode="reflection", align_corners=True), lambda: [rg(1, 2, 5, 4), grid(1, 3, 3, 2)], 172)
    C("grid_3d", lambda x, g: F.grid_sample(x, g, align_corners=True), lambda: [rg(1, 2, 3, 4, 3), grid(1, 2, 3, 2, 3)], 173)
    C("affine_grid_2d", lambda t: F.affine_grid(t, [2, 3, 4, 5], align_corners=False), lambda: [rg(2, 2, 3)], 174)
    C("affine_grid_3d", lambda t: F.affine_grid(t, [1, 2, 2, 3, 4], align_corners=True), lambda: [rg(1, 3, 4)], 175)
    # --- shuffles -----------------------------------------------------------------------
    C("f_pixel_shuffle", lambda x: F.pixel_shuffle(x, 3), lambda: [rg(1, 18, 2, 2)], 160)
    C("f_pixel_unshuffle", lambda x: F.pixel_unshuffle(x, 2), lambda: [rg(2, 4, 4)], 161)
    C("f_channel_shuffle", lambda x: F.channel_shuffle(x, 3), lambda: [rg(1, 6, 2, 2)], 162)


def error_cases(v):
    E = lambda name, fn: v.__setitem__("err_" + name, error_text(fn))
    E("groups_in", lambda: nn.Conv2d(3, 4, 3, groups=2))
    E("groups_out", lambda: nn.Conv2d(4, 6, 3, groups=4))
    E("groups_zero", lambda: nn.Conv2d(4, 4, 3, groups=0))
    E("same_strided", lambda: nn.Conv2d(2, 2, 3, stride=2, padding="same"))
    # padding="foo" and padding_mode="zero": PyTorch prints a Python set, in an order that
    # changes from run to run; the spec checks the text around it.
    E("transposed_mode", lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"))
    E("output_size_range", lambda: nn.ConvTranspose2d(3, 2, 3, stride=2)(torch.zeros(1, 3, 4, 4), [12, 12]))
    E("output_size_len", lambda: nn.ConvTranspose2d(3, 2, 3, stride=2)(torch.zeros(1, 3, 4, 4), [1, 10, 10]))
    E("interp_both", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=4, scale_factor=2))
    E("interp_neither", lambda: F.interpolate(torch.zeros(1, 1, 2, 2)))
    E("interp_align", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=2, align_corners=True))
    E("interp_size_len", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=[5]))
    E("interp_scale_len", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=[2.0, 2.0, 2.0]))
    E("interp_size_type", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=[2.5, 3]))
    E("interp_mode_rank", lambda: F.interpolate(torch.zeros(1, 1, 2), scale_factor=2, mode="bilinear"))
    E("interp_rank", lambda: F.interpolate(torch.zeros(2, 2), scale_factor=2))
    E("interp_antialias", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), scale_factor=2, antialias=True))
    E("interp_recompute", lambda: F.interpolate(torch.zeros(1, 1, 2, 2), size=3, recompute_scale_factor=True))
    E("max_pool_pad", lambda: F.max_pool2d(torch.zeros(1, 1, 4, 4), 2, padding=2))
    E("adaptive_dims", lambda: F.adaptive_avg_pool2d(torch.zeros(3), (None, 2)))
    E("pad_reflect_size", lambda: F.pad(torch.zeros(1, 2, 4), (5, 5), mode="reflect"))
    E("pixel_shuffle_channels", lambda: F.pixel_shuffle(torch.zeros(1, 3, 2, 2), 2))
    E("grid_mode", lambda: F.grid_sample(torch.zeros(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), mode="linear", align_corners=False))
    E("grid_padding", lambda: F.grid_sample(torch.zeros(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), padding_mode="wrap", align_corners=False))
    E("affine_shape", lambda: F.affine_grid(torch.zeros(2, 3, 3), [2, 3, 4, 5], align_corners=False))
    E("affine_size", lambda: F.affine_grid(torch.zeros(2, 2, 3), [2, 3, 4], align_corners=False))
    E("affine_dtype", lambda: F.affine_grid(torch.zeros(2, 2, 3, dtype=torch.int64), [2, 3, 4, 5], align_corners=False))
    E("affine_positive", lambda: F.affine_grid(torch.zeros(2, 2, 3), [2, 3, 0, 5], align_corners=False))
    E("unflatten_elem", lambda: nn.Unflatten(1, (2, 2.5)))
    E("lppool_zero", lambda: nn.LPPool2d(0, 2))


def main():
    v = {}
    module_cases(v)
    functional_cases(v)
    error_cases(v)
    # The reset_parameters() draw: the same numbers again after the same seed.
    torch.manual_seed(70)
    m = nn.ConvTranspose2d(4, 2, 3, groups=2)
    torch.manual_seed(71)
    m.reset_parameters()
    v["reset_params"] = [flat(p) for p in m.parameters()]
    path = os.path.join(HERE, "conv_fixtures.spl")
    write(path, __file__, v, index=True)


if __name__ == "__main__":
    main()
