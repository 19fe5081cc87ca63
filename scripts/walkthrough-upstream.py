#!/usr/bin/env python3
"""The README's walk-through upstream, on loopback, so it works offline: a feed, the article it links
to, a stand-in for the language model and a webhook that prints the alerts it receives.

The stand-in model speaks the OpenAI chat-completions protocol and always answers that the condition is
met, citing the first article link it was shown; it exists to show the path from a feed to an alert
without a provider account. Point MODEL_BASE_URL at a real provider (or Ollama, http://127.0.0.1:11434/v1)
for real judgements.

    python3 scripts/walkthrough-upstream.py [port]    # default 9000
"""
import json
import re
import sys
from datetime import datetime, timezone
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 9000
BASE = f"http://127.0.0.1:{PORT}"
PUBLISHED = format_datetime(datetime.now(timezone.utc))


def feed():
    return f"""<?xml version="1.0"?>
<rss version="2.0"><channel><title>Acme newsroom</title><link>{BASE}/</link>
<description>News from Acme</description>
<item><title>Acme sets the date of its first rocket launch</title><link>{BASE}/launch</link>
<guid>acme-launch-date</guid><pubDate>{PUBLISHED}</pubDate>
<description>Acme will launch on 12 December.</description></item>
</channel></rss>"""


ARTICLE = """<html><body><article><h1>Acme sets the date of its first rocket launch</h1>
<p>Acme announced today that its first rocket will launch on 12 December from its coastal pad.</p>
</article></body></html>"""


def verdict(prompt):
    links = re.findall(re.escape(BASE) + r"/[A-Za-z0-9/_-]+", prompt)
    cited = [{"url": links[0], "quote": "its first rocket will launch on 12 December"}] if links else []
    return {
        "reasoning": "The article states the launch date.",
        "met": bool(cited),
        "confidence": 0.9 if cited else 0.1,
        "summary": "Acme will launch its first rocket on 12 December." if cited else "Nothing yet.",
        "evidence": cited,
    }


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, content_type, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/feed.xml":
            self.answer(200, "application/rss+xml", feed())
        elif self.path == "/launch":
            self.answer(200, "text/html; charset=utf-8", ARTICLE)
        elif self.path.startswith("/v1/models"):
            self.answer(200, "application/json", json.dumps({"data": [{"id": "stand-in"}]}))
        else:
            self.answer(404, "text/plain", "not found")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        if self.path == "/v1/chat/completions":
            request = json.loads(body)
            prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []))
            content = json.dumps(verdict(prompt))
            self.answer(200, "application/json", json.dumps({
                "choices": [{"message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(content) // 4},
            }))
        elif self.path == "/hook":
            print("ALERT received on the webhook:\n" + json.dumps(json.loads(body), indent=2),
                  flush=True)
            self.answer(204, "text/plain", "")
        else:
            self.answer(404, "text/plain", "not found")

    def log_message(self, fmt, *args):
        print(f"{self.command} {self.path}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    print(f"feed {BASE}/feed.xml, model {BASE}/v1, webhook {BASE}/hook", flush=True)
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
