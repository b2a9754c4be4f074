import FuzzSupport

Fuzz.run(fuzzSniff)
