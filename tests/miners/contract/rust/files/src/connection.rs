use bytes::BytesMut;
use tokio::sync::broadcast;

pub struct Connection {
    stream: TcpStream,
    buffer: BytesMut,
}

impl Connection {
    pub fn new(socket: TcpStream) -> Connection {
        Connection {
            stream: socket,
            buffer: BytesMut::with_capacity(4 * 1024),
        }
    }

    pub fn subscribe(&self, key: String) -> broadcast::Receiver<Bytes> {
        let (tx, rx) = broadcast::channel(1024);
        let first = self.frames.get(0);
        rx
    }
}
