class Reader:
    def read(self, n=None):
        DEFAULT_LIMIT = 2_097_152
        return self.stream.read(n or DEFAULT_LIMIT)

    @property
    def default_port(self):
        """The port used unless one is given."""
        return 8080

    def __init__(self, stream, chunk_size=65_536, timeout=None):
        self.stream = stream
