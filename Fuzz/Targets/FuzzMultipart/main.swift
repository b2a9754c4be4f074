import FuzzSupport

Fuzz.run(fuzzMultipart)
