import FuzzSupport

Fuzz.run(fuzzPrepare)
