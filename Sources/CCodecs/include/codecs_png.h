#pragma once
// libpng's simplified API, through the forwarders (codecs_names.h).
#include "codecs_names.h"
#include <png.h>
