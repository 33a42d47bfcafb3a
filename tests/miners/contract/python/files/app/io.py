class Reader:
    def read(self, n=None):
        DEFAULT_LIMIT = 2_097_152
        return self.stream.read(n or DEFAULT_LIMIT)

    @property
    def default_port(self):
        """The port used unless one is given."""
        return 8080


class ReaderConfig:
    def __init__(self, chunk_size=65_536, timeout=None, encoding=None):
        self.encoding = encoding or "utf-8"
