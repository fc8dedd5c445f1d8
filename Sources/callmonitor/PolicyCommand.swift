// `callmonitor policy`: the signed remote policy for a bank's backend team (issue 28): make a
// key pair, sign a payload, verify a document and explain what it does on a device, all with the
// library's own parsers and the platform's crypto (libcrypto on Linux, CryptoKit on Apple).

import Foundation
import ScenarioLanguage
import hnb
import hnbPolicy

/// What `policy`'s options say, as written: each action checks the values it uses.
struct PolicyOptions: CommandOptions {
    var alg: String?
    var kid: String?
    var out: String?
    var force = false
    var key: String?
    var keys: String?
    var issuer: String?
    var allowRelaxation = false
    var at: String?
    /// Every `--manifest FILE`, in order.
    var manifests: [String] = []
    /// Every `--attribute NAME=VALUE` (the last value of a NAME).
    var attributes: [String: String] = [:]
}

struct PolicyCommand: ToolCommand {
    let name = "policy"
    let pointsToHelp = true
    let operands: String? = "keygen|sign|verify|explain …"

    var options: OptionTable<PolicyOptions> {
        // Every value is taken as written: each action checks the ones it uses, when it uses them.
        OptionTable(words: .any, [
            .text("--alg", "EdDSA|ES256", "keygen: the key's algorithm") { $0.alg = $1 },
            .text("--kid", "K", "keygen, sign: the key's name (the JWKS kid)") { $0.kid = $1 },
            .text("--out", "DIR", "keygen: where K.pem (the private key) and K.jwks.json go") { $0.out = $1 },
            .flag("--force", "keygen: replace an existing key, after copying it to K.pem.DATE.bak;\nsign: sign a payload with a rule that would do nothing") { $0.force = true },
            .text("--key", "KEY.pem", "sign: the private key (a PKCS #8 PRIVATE KEY PEM, or a SEC 1 EC PRIVATE KEY)") { $0.key = $1 },
            .text("--keys", "JWKS", "verify, explain: the pinned JWK Set; sign: refuse a --kid it does not pin") { $0.keys = $1 },
            .text("--issuer", "I", "verify, explain: the iss the app expects") { $0.issuer = $1 },
            .flag("--allow-relaxation", "verify, explain: as an app that allows relaxation") { $0.allowRelaxation = true },
            .text("--at", "TIME", "verify, explain: judge time at this instant, ISO 8601 (2026-01-08T00:00:00Z)\nor NumericDate seconds; by default now") {
                $0.at = $1
            },
            .repeated("--manifest", "FILE", needs: "a FILE", "verify, explain, sign: judge for the app build FILE describes (repeatable:\none per app version; written by CallMonitor.policyManifest())") {
                options, path throws(OptionValueError) in options.manifests.append(path)
            },
            .repeated("--attribute", "NAME=VALUE", needs: "NAME=VALUE", "explain: one of the device's attributes (repeatable:\nos, osVersion, appVersion and the app's own)") {
                options, pair throws(OptionValueError) in
                // A later value of the same NAME replaces an earlier one.
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { throw .malformed }
                options.attributes[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            },
        ])
    }

    let summary = """
        The signed remote policy: keygen (a key pair), sign (a payload into a compact JWS), verify and
        explain (which rule applies to a device) a document, as the library reads it.
        """

    let about = """
        Tools for the bank's backend team. keygen --alg EdDSA|ES256 --kid K --out DIR writes DIR/K.pem and
        DIR/K.jwks.json (pin the JWKS in the app, keep the PEM on the signing server; an existing key is never
        replaced without --force, which first copies it to a dated backup); sign --key KEY.pem
        --kid K [--keys JWKS] PAYLOAD.json prints the compact JWS of the payload, after reading it as the
        phones do (a payload they would refuse, or a kid --keys does not pin, is not signed; a key set with a private
        key or a shared secret is refused); verify --keys JWKS --issuer I DOC prints
        the result and the decoded policy; explain … --attribute os=iOS --attribute osVersion=26.1 DOC prints
        the rule that applies to that device and the resulting policy of every screen it names.
        """

    let details: String? = """
        DOC may be - for standard input. verify and explain say first whether the signature is genuine
        (signature: valid (EdDSA, kid "k1"), or badSignature, or not checked, with why), then judge the
        document as a phone does at --at: refused (the phones' reason and what it points at), expired or
        notYetValid (with the instants), or valid. With --manifest (repeatable) each build is judged with its
        own issuer, keys, code and permission to relax: applied (with the rules and screens that do nothing
        there) or refused and why. Without it, a flow or seconds that may be laxer than an app's code is
        printed as "cannot check relaxation without a manifest".

        exit status: 0 for a valid document (verify, explain) or a finished keygen or sign; 1 for a document
        the library would refuse, or that is not in force at --at (the reason is printed), that a build given
        with --manifest refuses (sign then prints no document), and for a payload or kid sign will not sign (a
        payload with a rule that would do nothing is signed only with --force);
        2 on a bad option, an unreadable file or manifest, or a key sign cannot read. Lines saying a rule
        would do nothing, or that relaxation cannot be checked without a manifest, leave it at 0.

        """

    @MainActor
    func run(_ arguments: ArraySlice<String>) -> Never {
        let (options, words) = parse(arguments)
        guard let action = words.first else { usage("policy needs keygen, sign, verify or explain") }
        let operands = Array(words.dropFirst())
        switch action {
        case "keygen":
            guard operands.isEmpty else { usage("keygen takes no file") }
            keygen(options)
        case "sign":
            guard operands.count == 1 else { usage("sign needs one PAYLOAD.json, not \(operands.count)") }
            sign(options, payload: operands[0])
        case "verify", "explain":
            guard operands.count == 1 else { usage("\(action) needs one document, not \(operands.count)") }
            check(options, document: operands[0], explain: action == "explain")
        default:
            usage("unknown policy action '\(PolicyFiles.clipped(action))'\(Suggestions.hint(for: action, in: ["keygen", "sign", "verify", "explain"]))")
        }
    }

    /// The value of option `name`, which this action needs: missing or empty, it fails in one line.
    private func require(_ value: String?, _ name: String) -> String {
        guard let value, !value.isEmpty else { usage("\(name) is needed") }
        return value
    }

    /// A file argument (`-`: standard input), at most `limit` bytes and one more; an unreadable
    /// one ends the tool with one line and exit status 2.
    private func read(_ path: String, limit: Int = PolicyKeySet.maximumLength) -> [UInt8] {
        do {
            return try PolicyFiles.read(path, limit: limit)
        } catch {
            fail(error.message)
        }
    }

    private func keygen(_ options: PolicyOptions) -> Never {
        let algName = require(options.alg, "--alg")
        guard let algorithm = PolicyAlgorithm(rawValue: algName) else { fail("--alg is EdDSA or ES256, not '\(PolicyFiles.clipped(algName))'") }
        let kid = require(options.kid, "--kid")
        guard kid.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), !kid.hasPrefix(".") else {
            fail("--kid may hold letters, digits, '-', '_' and '.' (it names the files)")
        }
        let out = require(options.out, "--out")
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        // The paths are said as the user wrote the folder (relative stays relative).
        let shown = out.hasSuffix("/") ? out : out + "/"
        let key: PolicySigningKey
        do {
            key = try PolicySigningKey.generate(algorithm)
        } catch {
            fail("no key: \(error)")
        }
        let pem = shown + "\(kid).pem"
        let jwks = shown + "\(kid).jwks.json"
        let set = PolicyKeySet(keys: [PolicyKeySet.Key(kid: kid, material: key.publicKey)])
        let existing = [pem, jwks].filter { FileManager.default.fileExists(atPath: $0) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            fail("cannot make the folder \(out): \(PolicyFiles.obstacle(on: out))")
        }
        var notes = ""
        do throws(PolicyFiles.Unreadable) {
            if existing.isEmpty {
                try PolicyFiles.create(pem, Array(key.pem.utf8), mode: 0o600)
                try PolicyFiles.create(jwks, Array((set.json + "\n").utf8), mode: 0o644)
            } else {
                // The pinned key is the only way to reach the apps that carry it: never lost
                // by a repeated command, and with --force only after a dated copy is written.
                guard options.force else {
                    fail("\(existing[0]) exists: keygen never replaces a key the apps may pin (--force replaces it after a dated backup)")
                }
                let stamp = PolicyFiles.stamp(Date())
                for file in existing {
                    let old = try PolicyFiles.read(file, limit: 1 << 20)
                    try PolicyFiles.create("\(file).\(stamp).bak", old, mode: 0o600)
                    notes += "backup \(file).\(stamp).bak\n"
                }
                try PolicyFiles.replace(pem, Array(key.pem.utf8), mode: 0o600)
                try PolicyFiles.replace(jwks, Array((set.json + "\n").utf8), mode: 0o644)
            }
        } catch {
            fail(error.message)
        }
        Output.write(notes)
        Output.write("private key \(shown)\(kid).pem\npublic key set \(shown)\(kid).jwks.json\n")
        exit(0)
    }

    private func sign(_ options: PolicyOptions, payload path: String) -> Never {
        let keyPath = require(options.key, "--key")
        let kid = require(options.kid, "--kid")
        let pem = PolicySigningKey.PEM(String(decoding: read(keyPath), as: UTF8.self))
        guard case .der(let der, let label) = pem else { fail(pem.problem(path: keyPath)) }
        let key: PolicySigningKey
        do {
            key = try PolicySigningKey.load(pkcs8: der)
        } catch {
            // A SEC 1 key the platform cannot read is converted by one command.
            guard label == "PRIVATE KEY" else { fail(PolicySigningKey.PEM.conversion(label: label, path: keyPath)) }
            fail("cannot sign: \(error)")
        }
        var payload = read(path)
        // Read up to the limit and one byte more: a longer payload is refused, never cut.
        guard payload.count <= PolicyKeySet.maximumLength else { fail("\(path) is longer than 64 KiB: no phone reads a document that long") }
        // A file's last newline is not part of the payload.
        while let last = payload.last, last == 0x0A || last == 0x0D { payload.removeLast() }
        // What the phones would refuse is not signed: the phones' own reader, and the key they
        // would look up.
        let document: PolicyDocument
        switch PolicyDocument.readPayload(payload, issuer: nil) {
        case .failure(let refusal): refuse("\(path): the phones would refuse it (\(refusal.reason.rawValue)): \(refusal.detail)")
        case .success(let read): document = read
        }
        let builds = PolicyManifestCheck.load(options.manifests)
        // Issue 53: a rule verify would say does nothing is a mistake, not signed unless asked for.
        let warnings = PolicyManifestCheck.inertRules(document)
        if !warnings.isEmpty && !options.force {
            refuse("not signed: a rule would do nothing (--force signs it anyway)\n" + warnings.joined(separator: "\n"))
        }
        if let keysPath = options.keys {
            let keys: PolicyKeySet
            do {
                keys = try PolicyKeySet.parse(read(keysPath))
            } catch {
                fail("\(keysPath): \(error)")
            }
            guard let pinned = keys.key(named: kid) else {
                refuse("--kid \(JSONText.quoted(kid)) is not in \(keysPath) (\(keys.keys.map(\.kid).joined(separator: ", "))): the phones would refuse it (unknownKey)")
            }
            guard pinned.material == key.publicKey else {
                refuse("\(keyPath) is not the key \(JSONText.quoted(kid)) of \(keysPath): the phones would refuse the signature (badSignature)")
            }
        }
        do {
            let signed = try PolicyTool.sign(payload: payload, kid: kid, key: key)
            PolicyManifestCheck.checkSigned(signed, kid: kid, key: key.publicKey, builds: builds)
            if !warnings.isEmpty { Output.error(warnings.joined(separator: "\n") + "\n") }
            Output.write(signed + "\n")
            exit(0)
        } catch {
            fail("cannot sign: \(error)")
        }
    }

    /// A payload or key the phones would refuse: one line, exit status 1 (as verify's refusals).
    private func refuse(_ message: String) -> Never {
        Output.error("callmonitor: \(message)\n")
        exit(1)
    }

    private func check(_ options: PolicyOptions, document path: String, explain: Bool) -> Never {
        let keysPath = require(options.keys, "--keys")
        let issuer = require(options.issuer, "--issuer")
        var time = Date()
        if let at = options.at {
            guard let instant = PolicyFiles.instant(at) else {
                fail("--at is an ISO 8601 date-time (2026-01-08T00:00:00Z) or NumericDate seconds, not '\(PolicyFiles.clipped(at))'")
            }
            time = instant
        }
        guard keysPath != "-" || path != "-" else { fail("only one file can be read from standard input (-)") }
        let keys: PolicyKeySet
        do {
            keys = try PolicyKeySet.parse(read(keysPath))
        } catch {
            fail("\(keysPath): \(error)")
        }
        // A manifest says whether its build allows relaxation; the report above it judges the
        // content alone (relaxation allowed), each build then judges relaxation for itself.
        guard options.manifests.isEmpty || !options.allowRelaxation else {
            fail("--allow-relaxation and --manifest: each manifest says whether its build allows relaxation")
        }
        let builds = PolicyManifestCheck.load(options.manifests)
        let relax = options.allowRelaxation || !builds.isEmpty
        let document = read(path)
        let report = explain
            ? PolicyTool.explain(document: document, keys: keys, issuer: issuer, allowsRelaxation: relax, attributes: options.attributes, at: time)
            : PolicyTool.verify(document: document, keys: keys, issuer: issuer, allowsRelaxation: relax, at: time)
        // RFC 7517 section 5: keys of a type the library does not use are skipped; say which.
        let ignored = keys.ignored.map { "ignored key \($0): not a type the phones verify with (OKP/Ed25519, EC/P-256)" }
        let checked = report.valid
            ? PolicyManifestCheck.lines(document: document, keys: keys, issuer: issuer, builds: builds, allowsRelaxation: relax, at: time)
            : (lines: [], refused: false)
        Output.write((report.lines + checked.lines + ignored).joined(separator: "\n") + "\n")
        exit(report.valid && !checked.refused ? 0 : 1)
    }
}
