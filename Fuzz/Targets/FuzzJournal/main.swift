import FuzzSupport

writeSeeds()
Fuzz.run(fuzzJournal)
