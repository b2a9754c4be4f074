#pragma once
// libjxl's butteraugli distance, through the forwarders (codecs_names.h): what `--quality auto`
// scores its sample encodings by.
#include "codecs_names.h"
#include <jxl/butteraugli.h>
