import Foundation

/// A real S3-compatible store for tests: moto (`moto[server]` in the virtual environment `Scripts/setup.sh` makes,
/// /opt/imago-moto-venv) run as a child on a free 127.0.0.1 port, never a shared service, stopped with SIGKILL.
///
/// moto runs in a small Python program of its own (the same WSGI application `moto_server` serves) behind a
/// counter of the S3 requests it receives and of its answers by status, so a test can tell how often an object was
/// fetched whole (200) or revalidated (304). Its back end is not
/// thread-safe (concurrent PUTs of one key fail inside moto), so requests reach it one at a time. The program also
/// answers a few control requests under `/_imago/` that act on moto's back end directly (never counted, never
/// authenticated): create a bucket, put an object, read the counts, and switch authentication on.
///
/// moto accepts any request until authentication is switched on; `enforceAuthentication()` creates an IAM user
/// with an `s3:*` policy and an access key, then sets moto's `INITIAL_NO_AUTH_ACTION_COUNT` to 0 (what its
/// `/moto-api/reset-auth` does): from then on only that key works, and a wrong secret gets 403
/// `SignatureDoesNotMatch`.
public final class MotoServer: Sendable {
    /// The Python of moto's virtual environment.
    public static let interpreter = "/opt/imago-moto-venv/bin/python3"
    /// The region buckets are made in (moto's default).
    public static let region = "us-east-1"
    private let server: PythonLoopbackServer

    private static let script = #"""
        import collections, json, os, sys, threading
        from werkzeug.serving import make_server
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.core.responses import ActionAuthenticatorMixin
        from moto.iam.models import iam_backends
        from moto.s3.models import s3_backends
        from moto import settings

        counts = collections.Counter()
        answered = collections.Counter()
        lock = threading.Lock()
        backend_lock = threading.Lock()
        moto_app = DomainDispatcherApplication(create_backend_app)

        def answer(start, status, body):
            data = json.dumps(body).encode()
            start(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
            return [data]

        def control(environ, start, parts):
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length) if length else b""
            s3 = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
            if parts[0] == "bucket":
                s3.create_bucket(parts[1], "us-east-1")
            elif parts[0] == "object":
                s3.put_object(parts[1], parts[2], body)
            elif parts[0] == "requests":
                with lock:
                    return answer(start, "200 OK", dict(counts))
            elif parts[0] == "responses":
                with lock:
                    return answer(start, "200 OK", dict(answered))
            elif parts[0] == "enforce-auth":
                iam = iam_backends[DEFAULT_ACCOUNT_ID]["global"]
                iam.create_user("us-east-1", "imago-test")
                policy = {"Version": "2012-10-17",
                          "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
                iam.put_user_policy("imago-test", "s3-all", json.dumps(policy))
                key = iam.create_access_key("imago-test")
                settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
                ActionAuthenticatorMixin.request_count = 0
                return answer(start, "200 OK",
                              {"accessKeyId": key.access_key_id, "secretAccessKey": key.secret_access_key})
            else:
                return answer(start, "404 Not Found", {"error": "unknown control request"})
            return answer(start, "200 OK", {"ok": True})

        def app(environ, start):
            # PATH_INFO is the decoded path as latin-1 text: back to bytes, then UTF-8.
            path = environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8", "replace")
            if path.startswith("/_imago/"):
                try:
                    return control(environ, start, path[len("/_imago/"):].split("/", 2))
                except Exception as error:
                    return answer(start, "500 Internal Server Error", {"error": str(error)})
            method = environ["REQUEST_METHOD"]
            with lock:
                counts[method + " " + path] += 1

            def counting_start(status, headers, *rest):
                with lock:
                    answered[method + " " + status.split(" ", 1)[0] + " " + path] += 1
                return start(status, headers, *rest)

            # moto's S3 back end is not thread-safe (two PUTs of one key fail with "I/O operation on closed
            # file"): requests reach it one at a time; connections are still served on threads.
            with backend_lock:
                return moto_app(environ, counting_start)

        class QuietHandler(MotoRequestHandler):
            def log_request(self, *args, **kwargs):
                pass

        server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
        os.environ["MOTO_PORT"] = str(server.server_port)
        print(server.server_port, flush=True)
        server.serve_forever()
        """#

    /// Starts moto (a few seconds: it imports its back ends) and waits until it listens.
    public init() throws {
        server = try PythonLoopbackServer(script: Self.script, interpreter: Self.interpreter)
    }

    /// The port moto listens on.
    public var port: Int { server.port }
    /// `http://127.0.0.1:PORT`: the endpoint to configure (with path-style addressing).
    public var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// Creates `bucket` (directly in moto's back end: not counted, no authentication needed).
    public func createBucket(_ bucket: String) throws {
        try control("POST", "bucket/\(bucket)")
    }

    /// Stores `data` as the object `key` (decoded, as in an `s3://` URL after decoding) in `bucket`.
    public func putObject(bucket: String, key: String, data: Data) throws {
        try control("PUT", "object/\(bucket)/\(Self.encode(key))", body: data)
    }

    /// Every S3 request moto received so far, counted by `"METHOD /bucket/key"` (the key decoded).
    public func requests() throws -> [String: Int] {
        let data = try control("GET", "requests")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }

    /// Every S3 request moto answered so far, counted by `"METHOD STATUS /bucket/key"` (`"GET 304 /b/k"` for a
    /// revalidation that found the object unchanged).
    public func responses() throws -> [String: Int] {
        let data = try control("GET", "responses")
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }

    /// How many `method` requests for `key` (decoded) in `bucket` moto answered with `status` (path-style).
    public func responseCount(_ method: String = "GET", status: Int, bucket: String, key: String) throws -> Int {
        try responses()["\(method) \(status) /\(bucket)/\(key)"] ?? 0
    }

    /// How many `method` requests moto received for `key` (decoded) in `bucket` (path-style requests).
    public func requestCount(_ method: String = "GET", bucket: String, key: String) throws -> Int {
        try requests()["\(method) /\(bucket)/\(key)"] ?? 0
    }

    /// The number of S3 requests received so far, of any kind.
    public func totalRequests() throws -> Int {
        try requests().values.reduce(0, +)
    }

    /// Switches authentication on and returns the only keys that work from now on (an IAM user's, allowed `s3:*`).
    public func enforceAuthentication() throws -> (accessKeyId: String, secretAccessKey: String) {
        let data = try control("POST", "enforce-auth")
        guard let keys = try JSONSerialization.jsonObject(with: data) as? [String: String],
            let id = keys["accessKeyId"], let secret = keys["secretAccessKey"]
        else { throw PythonLoopbackServerError(message: "moto gave no access key") }
        return (id, secret)
    }

    /// Stops moto (SIGKILL) and waits for it to exit.
    public func stop() { server.stop() }

    /// Sends a control request with the system's `curl` (synchronous, no URLSession) and returns the body; throws
    /// when moto refused it.
    @discardableResult
    private func control(_ method: String, _ path: String, body: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-s", "-S", "--fail-with-body", "-X", method, "--data-binary", "@-"]
        arguments.append("http://127.0.0.1:\(port)/_imago/\(path)")
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: body ?? Data())
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonLoopbackServerError(
                message: "moto refused \(method) \(path): \(String(decoding: answer, as: UTF8.self))")
        }
        return answer
    }

    /// `key` percent-encoded for a URL path (every byte but unreserved characters and `/`).
    static func encode(_ key: String) -> String {
        var allowed = CharacterSet(charactersIn: "-_.~/")
        allowed.formUnion(CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
        return key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
    }
}
