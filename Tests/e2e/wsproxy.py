"""A TCP proxy between a browser and the server, for page tests that need the network
itself in every engine: it reads the WebSocket messages the server sends to the page
(`frames`, text messages as JSON, in order), counts the page's WebSocket connections, and
can cut them (`drop()`, as a network that goes away does), leave upgrades unanswered
(`hold`) or slip a frame of its own in (`inject`). Bytes pass through unchanged; the page is opened at `url`."""
import asyncio
import json
import struct

from loopproxy import LoopbackProxy


class Proxy(LoopbackProxy):
    def __init__(self, port):
        self.frames = []
        self.connections = 0
        self.hold = False
        super().__init__(port)

    async def _accept(self, client_reader, client_writer, first):
        websocket = first.startswith(b"GET /ws")
        if websocket:
            self.connections += 1
            if self.hold:
                self._held.append(client_writer)  # never answered: the page waits, as behind a stuck network
                return
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target)
        server_writer.write(first)
        line = (client_writer, server_writer)
        if websocket:
            self._lines.add(line)
        await asyncio.gather(self._pipe(client_reader, server_writer),
                             self._pipe(server_reader, client_writer, self._reader() if websocket else None),
                             return_exceptions=True)
        self._lines.discard(line)

    def inject(self, payload, binary=False):
        """Sends `payload` (str or bytes) to every page connection as one frame from the
        server (unmasked), between the server's frames: for a frame the server would never
        send. Call it while the line is idle."""
        data = payload.encode() if isinstance(payload, str) else payload
        size = len(data)
        head = bytes([0x82 if binary else 0x81])
        head += bytes([size]) if size < 126 else bytes([126]) + struct.pack(">H", size) if size < 65536 \
            else bytes([127]) + struct.pack(">Q", size)
        def send():
            for client, _ in list(self._lines):
                client.write(head + data)
        self._loop.call_soon_threadsafe(send)

    async def _pipe(self, reader, writer, parser=None):
        if parser:
            next(parser)
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
                if parser:
                    parser.send(data)
        finally:
            writer.close()

    def _reader(self):
        """Takes the server's bytes: the HTTP answer, then frames (unmasked, as a server's are)."""
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            buffer += yield
        buffer = buffer.split(b"\r\n\r\n", 1)[1]
        message = b""
        while True:
            while True:
                if len(buffer) >= 2:
                    size, at = buffer[1] & 0x7F, 2
                    if size == 126 and len(buffer) >= 4:
                        size, at = struct.unpack(">H", buffer[2:4])[0], 4
                    elif size == 127 and len(buffer) >= 10:
                        size, at = struct.unpack(">Q", buffer[2:10])[0], 10
                    if size < 126 or at > 2:
                        if len(buffer) >= at + size:
                            break
                buffer += yield
            fin, opcode, payload = buffer[0] & 0x80, buffer[0] & 0x0F, buffer[at:at + size]
            buffer = buffer[at + size:]
            if opcode in (0, 1):
                message += payload
                if fin:
                    self.frames.append(json.loads(message))
                    message = b""
