"""What the tests' TCP proxies share: an asyncio loop on a thread of its own, listening on
a loopback port in front of the server's, with `drop()` to cut the connections it passes
(as a network that goes away does) and `close()` to stop with no connection or task left
behind. A proxy says what to do with a connection in `_accept`, given its request line; it
registers each (page, server) pair of writers in `_lines` for `drop()`, and writers it
holds unanswered in `_held`."""
import asyncio
import threading


class LoopbackProxy:
    def __init__(self, port):
        self.target = port
        self._lines = set()
        self._held = []
        self._tasks = set()
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self._thread.start()
        ready.wait(10)
        self.url = f"http://127.0.0.1:{self.port}/"

    def _run(self, ready):
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _serve(self, client_reader, client_writer):
        self._tasks.add(asyncio.current_task())
        try:
            first = await client_reader.readuntil(b"\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            client_writer.close()
            return
        await self._accept(client_reader, client_writer, first)

    async def _accept(self, client_reader, client_writer, first):
        """`first`: the request line, already read (the proxy sends it on itself)."""
        raise NotImplementedError

    def drop(self):
        """Cuts every connection in `_lines`, both ways, with what was still held."""
        def cut():
            for client, server in list(self._lines):
                client.transport.abort()
                server.transport.abort()
        self._loop.call_soon_threadsafe(cut)

    def close(self):
        """Cuts everything and stops: no connection or task is left behind."""
        async def stop():
            self._server.close()
            for writer in self._held:
                writer.transport.abort()
            tasks = [t for t in self._tasks if t is not asyncio.current_task() and not t.done()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._loop.stop()
        self.drop()
        asyncio.run_coroutine_threadsafe(stop(), self._loop)
        self._thread.join(10)
