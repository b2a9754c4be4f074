import FuzzSupport

writeSeeds()
Fuzz.run(fuzzAnnouncementJSON)
