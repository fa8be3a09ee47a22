"""HEAD requests on the API answered as GET without the body (FastAPI's routes take only the methods named).

`curl -I` and health checks use HEAD; without this, `HEAD /api/games` fell through to the page's static
files and answered 404 with the not-found page.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """ASGI middleware: a HEAD under `/api/` runs the GET route; the status and headers (Content-Length
    included) are sent, the body is not."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
