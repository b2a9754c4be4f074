import Foundation
import Testing
@testable import PetSpotCLI

/// Where drafts are kept: `--state-dir` > `PETSPOT_STATE_DIR` > absolute `$XDG_STATE_HOME/petspot` > `~/.local/state/petspot`.
@Suite struct ReportStateLocationTests {
    @Test(arguments: [
        (String?.none, ["PETSPOT_STATE_DIR": "/srv/a", "XDG_STATE_HOME": "/srv/b"], "/srv/a", StateLocation.Source.environment),
        ("/srv/flag", ["PETSPOT_STATE_DIR": "/srv/a"], "/srv/flag", .flag),
        (nil, ["PETSPOT_STATE_DIR": "", "XDG_STATE_HOME": "/srv/b"], "/srv/b/petspot", .xdg),
        (nil, ["XDG_STATE_HOME": "relative/state", "HOME": "/home/pet"], "/home/pet/.local/state/petspot", .home),
        (nil, ["XDG_STATE_HOME": "", "HOME": "/home/pet"], "/home/pet/.local/state/petspot", .home),
        ("", ["HOME": "/home/pet"], "/home/pet/.local/state/petspot", .home),
    ])
    func followsFlagThenEnvironmentThenAbsoluteXDGThenHome(
        flag: String?, environment: [String: String], root: String, source: StateLocation.Source
    ) {
        let location = StateLocation.resolve(flag: flag, environment: environment)
        #expect(location.root.path == root)
        #expect(location.source == source)
        #expect(location.draftsFolder.path == root + "/drafts")
    }
}
