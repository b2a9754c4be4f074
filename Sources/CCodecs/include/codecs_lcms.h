#pragma once
// Little CMS 2, through the forwarders (codecs_names.h): converting a photo from a colour profile
// that cannot be carried to sRGB.
#include "codecs_names.h"
#include <lcms2.h>

// The pixel formats used, as constants Swift can see (lcms2.h builds them with macros).
static const cmsUInt32Number codecs_lcms_gray_8 = TYPE_GRAY_8;
static const cmsUInt32Number codecs_lcms_graya_8 = TYPE_GRAYA_8;
static const cmsUInt32Number codecs_lcms_rgb_8 = TYPE_RGB_8;
static const cmsUInt32Number codecs_lcms_rgba_8 = TYPE_RGBA_8;
static const cmsUInt32Number codecs_lcms_copy_alpha = cmsFLAGS_COPY_ALPHA;
static const cmsUInt32Number codecs_lcms_perceptual = INTENT_PERCEPTUAL;
static const cmsUInt32Number codecs_lcms_high_resolution = cmsFLAGS_HIGHRESPRECALC;
