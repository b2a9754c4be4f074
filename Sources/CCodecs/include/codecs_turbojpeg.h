#pragma once
// TurboJPEG's API, through the forwarders (codecs_names.h).
#include <stddef.h>
#include "codecs_names.h"
#include <turbojpeg.h>
