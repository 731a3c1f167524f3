import http from "node:http"
http.createServer((req, res) => { const b = JSON.stringify({ data: { status: "ok" } }); res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(b) }); res.end(b) }).listen(Number(process.env.PORT), "127.0.0.1")
