import FuzzSupport

writeSeeds()
Fuzz.run(fuzzDraft)
