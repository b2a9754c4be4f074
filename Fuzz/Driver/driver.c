#include "fuzz_driver.h"

static pf_harness current_harness;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    return current_harness(data, size);
}

int pf_run(int *argc, char ***argv, pf_harness harness) {
    current_harness = harness;
    return LLVMFuzzerRunDriver(argc, argv, harness);
}
