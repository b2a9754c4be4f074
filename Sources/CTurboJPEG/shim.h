#pragma once
#include <stddef.h>
#include <turbojpeg.h>
