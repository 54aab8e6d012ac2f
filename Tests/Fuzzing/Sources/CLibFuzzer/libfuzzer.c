// Headers only: LLVMFuzzerRunDriver comes from libclang_rt.fuzzer (-sanitize=fuzzer).
