#pragma once

/// The image codec libraries (libjpeg, TurboJPEG, libpng, libwebp and its demux and mux parts) are
/// not linked: this target defines every function of theirs that PetSpot calls, under the same
/// name, and each loads its library (dlopen) and its own symbol (dlsym) on its first call. A
/// process that never touches a PNG never maps libpng; `petspot --version` maps none of them.
///
/// A library that cannot be loaded ends the process with exit status 70 and a message naming it,
/// as the dynamic loader would have refused to start it before.

/// Loads every codec library now (a server may rather fail at start than on its first photo);
/// returns 0, or -1 with `error` (`size` bytes) saying which library failed and why.
int codecs_load_all(char *error, unsigned long size);
