#pragma once
// libwebp's decoder, encoder, animation decoder and muxer, through the forwarders
// (codecs_names.h); the headers' inline functions call the forwarders too.
#include "codecs_names.h"
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
