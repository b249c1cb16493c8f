import Testing

@testable import ImagoServer

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct AddressClassifierTests {
    /// What glibc's resolver makes of `text` (getaddrinfo reads numeric IPv4 hosts with inet_aton).
    func inetAton(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    @Test func readsIPv4ExactlyAsTheResolverDoes() {
        let forms = [
            "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0X7F000001", "0x7f.1", "0x7f.0.0.1",
            "0177.0.0.1", "0177.1", "017700000001", "0", "0.0.0.0", "00", "0x", "0x0", "10.1", "192.168.257",
            "255.255.255.255", "4294967295", "4294967296", "256.0.0.1", "1.2.3.4.5", "1..2", ".1.2.3", "1.2.3.",
            "08.0.0.1", "0x1g", "1.2.3.0x100", "1.2.0x10000", "1.0xffffff", "1.0x1000000", "", "a.b.c.d", "1.2.3.-4",
            "+1.2.3.4", "１.2.3.4", "99999999999999999999", "0x00000000000000007f000001", "0x.1", "1.0x",
        ]
        for form in forms {
            #expect(AddressClassifier.ipv4Bytes(form) == inetAton(form), "\(form)")
        }
    }

    @Test func classifiesIPv4Ranges() {
        let cases: [(String, AddressClass)] = [
            ("8.8.8.8", .public), ("93.184.216.34", .public), ("172.15.255.255", .public), ("172.32.0.1", .public),
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("127.1", .loopback), ("2130706433", .loopback),
            ("0x7f.1", .loopback), ("0177.0.0.1", .loopback), ("10.0.0.1", .private), ("172.16.0.1", .private),
            ("172.31.255.255", .private), ("192.168.1.1", .private), ("100.64.0.1", .private),
            ("198.18.0.1", .private), ("169.254.169.254", .linkLocal), ("0.0.0.0", .unspecified), ("0", .unspecified),
            ("0.1.2.3", .unspecified), ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
            ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.0.8", .reserved),
        ]
        for (host, expected) in cases {
            #expect(AddressClassifier.classify(host: host) == expected, "\(host)")
        }
    }

    @Test func classifiesIPv6RangesAndEmbeddedIPv4() {
        let cases: [(String, AddressClass)] = [
            ("2606:4700::1111", .public), ("2001:db8::1", .public), ("::1", .loopback), ("[::1]", .loopback),
            ("0:0:0:0:0:0:0:1", .loopback), ("::", .unspecified), ("[::]", .unspecified), ("fe80::1", .linkLocal),
            ("fe80::1%eth0", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .private), ("fc00::1", .uniqueLocal),
            ("fd12:3456::1", .uniqueLocal), ("ff02::1", .multicast), ("::ffff:127.0.0.1", .loopback),
            ("[::ffff:7f00:1]", .loopback), ("::ffff:10.0.0.1", .private), ("::ffff:8.8.8.8", .public),
            ("::127.0.0.1", .loopback), ("::169.254.169.254", .linkLocal), ("64:ff9b::a00:1", .private),
            ("64:ff9b::808:808", .public), ("2002:7f00:1::", .loopback), ("2002:0808:0808::", .public),
            ("100::1", .reserved),
        ]
        for (host, expected) in cases {
            #expect(AddressClassifier.classify(host: host) == expected, "\(host)")
        }
    }

    @Test func namesAreNotAddresses() {
        for host in [
            "example.com", "localhost", "127.0.0.1.nip.io", "0x7f.example", "::ffff:127.0.0.1.x", "[::1", "1.2.3.4.5",
        ] {
            #expect(AddressClassifier.classify(host: host) == nil, "\(host)")
        }
    }

    @Test func connectionFilterAllowsOnlyPublicAddressesByDefault() {
        #expect(AddressClassifier.allows(ip: "93.184.216.34", allowPrivate: false))
        #expect(AddressClassifier.allows(ip: "2606:4700::1111", allowPrivate: false))
        for ip in ["127.0.0.1", "10.1.2.3", "::1", "::ffff:192.168.0.1", "fd00::1", "169.254.1.1", "0.0.0.0"] {
            #expect(!AddressClassifier.allows(ip: ip, allowPrivate: false), "\(ip)")
            #expect(AddressClassifier.allows(ip: ip, allowPrivate: true), "\(ip)")
        }
        #expect(!AddressClassifier.allows(ip: "not-an-ip", allowPrivate: true))
    }
}
