// libFuzzer's own driver, for programs that have their own main (llvm.org/docs/LibFuzzer.html,
// "Using LibFuzzerRunDriver"): SwiftPM gives every executable a main of its own, so the
// targets start libFuzzer from there rather than through libFuzzer's main.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
