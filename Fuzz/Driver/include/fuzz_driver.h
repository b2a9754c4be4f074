#pragma once
#include <stddef.h>
#include <stdint.h>

typedef int (*pf_harness)(const uint8_t *data, size_t size);

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM gives every
/// executable one): parses libFuzzer's flags from argv and fuzzes `callback` until done.
int LLVMFuzzerRunDriver(int *argc, char ***argv, pf_harness callback);

/// Runs libFuzzer on `harness` (also reachable as `LLVMFuzzerTestOneInput`, which libFuzzer's
/// runtime references even when the driver is entered this way).
int pf_run(int *argc, char ***argv, pf_harness harness);
