"""A TCP proxy that delays every chunk it passes on, each way, as a slow network does
(75 ms each way is a phone's 150 ms round trip), for the latency benchmark and the page
tests that need a server slower than the page. Bytes pass in order and unchanged; no root,
no `tc`. `loss` (0 to 1) holds that share of chunks back as long as a TCP retransmission
would (a 200 ms timeout after the round trip), and every chunk after them on that
connection with them, as a lost segment does. `paused` holds every server-to-page chunk
(a server that does not answer yet) until it is set False again; `drop()` cuts every
connection and `offline` refuses new WebSocket connections, as a network that went away
(the page itself still loads, so that a reload can be tried offline). `requests` lists the
request lines (`GET / HTTP/1.1`) that reached the server, as a server's log would."""
import asyncio
import random
import re
import time

from loopproxy import LoopbackProxy


REQUEST_LINE = re.compile(rb"(GET|HEAD|POST|PUT|DELETE|OPTIONS) \S+ HTTP/1\.[01]\r\n")


class DelayProxy(LoopbackProxy):
    RETRANSMISSION_S = 0.2

    def __init__(self, port, one_way_ms=75, loss=0.0, seed=1):
        self.delay = one_way_ms / 1000
        self.loss = loss
        self.paused = False
        self.offline = False
        self.requests = []
        self.random = random.Random(seed)
        super().__init__(port)

    async def _accept(self, client_reader, client_writer, first):
        if self.offline and first.startswith(b"GET /ws"):
            client_writer.transport.abort()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            client_writer.close()
            return
        line = (client_writer, server_writer)
        self._lines.add(line)
        await asyncio.gather(self._pipe(client_reader, server_writer, False, first),
                             self._pipe(server_reader, client_writer, True), return_exceptions=True)
        self._lines.discard(line)

    async def _pipe(self, reader, writer, to_page, first=b""):
        queue = asyncio.Queue()
        if first:
            self.requests.append(first.decode("latin-1").strip())
            queue.put_nowait((time.monotonic() + self.delay, first))

        async def deliver():
            last = 0.0
            while (item := await queue.get()) is not None:
                due, data = item
                due = max(due, last)  # in order: a late chunk holds back those after it
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                while to_page and self.paused:
                    await asyncio.sleep(0.005)
                last = due
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(deliver())
        try:
            while data := await reader.read(65536):
                if not to_page and REQUEST_LINE.match(data):  # the next request on a kept-alive line
                    self.requests.append(data.split(b"\r\n", 1)[0].decode("latin-1"))
                due = time.monotonic() + self.delay
                if self.loss and self.random.random() < self.loss:
                    due += self.RETRANSMISSION_S + 2 * self.delay
                queue.put_nowait((due, data))
        except ConnectionError:
            pass
        finally:
            queue.put_nowait(None)
            await asyncio.gather(sender, return_exceptions=True)
