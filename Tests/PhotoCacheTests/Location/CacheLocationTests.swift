import Foundation
import Testing
@testable import PhotoCache

@Suite struct CacheLocationTests {
    @Test func flagWinsOverEverything() {
        let location = CacheLocation.resolve(flag: "/tmp/a", environment: ["PETSPOT_CACHE_DIR": "/tmp/b", "XDG_CACHE_HOME": "/tmp/c"])
        #expect(location.root.path == "/tmp/a")
        #expect(location.source == .flag)
    }

    @Test func environmentVariableWinsOverXDG() {
        let location = CacheLocation.resolve(environment: ["PETSPOT_CACHE_DIR": "/tmp/b", "XDG_CACHE_HOME": "/tmp/c"])
        #expect(location.root.path == "/tmp/b")
    }

    @Test func absoluteXDGCacheHomeIsUsed() {
        let location = CacheLocation.resolve(environment: ["XDG_CACHE_HOME": "/tmp/c", "HOME": "/home/x"])
        #expect(location.root.path == "/tmp/c/petspot")
        #expect(location.source == .xdg)
    }

    @Test(arguments: ["relative/cache", "./cache", "~/cache"])
    func relativeXDGCacheHomeIsIgnored(_ value: String) {
        let location = CacheLocation.resolve(environment: ["XDG_CACHE_HOME": value, "HOME": "/home/x"])
        #expect(location.root.path == "/home/x/.cache/petspot")
        #expect(location.source == .home)
    }
}

@Suite struct CacheLocationFallbackTests {
    @Test func emptyValuesAreIgnored() {
        let location = CacheLocation.resolve(flag: "", environment: ["PETSPOT_CACHE_DIR": "", "XDG_CACHE_HOME": "", "HOME": "/home/x"])
        #expect(location.root.path == "/home/x/.cache/petspot")
        #expect(location.source == .home)
    }

    @Test func relativeXDGCacheHomeFallsBackEvenWithoutAHomeVariable() {
        let location = CacheLocation.resolve(environment: ["XDG_CACHE_HOME": "cache"])
        #expect(location.source == .home)
        #expect(location.root.path.hasSuffix("/.cache/petspot"))
    }
}
