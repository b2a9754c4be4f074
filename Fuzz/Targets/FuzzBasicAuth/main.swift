import FuzzSupport

Fuzz.run(fuzzBasicAuth)
