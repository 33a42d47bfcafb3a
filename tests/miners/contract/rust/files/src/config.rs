pub struct Config {
    pub port: u16,
    pub host: String,
    pub workers: Option<usize>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            port: 6379,
            host: "127.0.0.1".to_string(),
            workers: None,
        }
    }
}

pub struct Limits {
    pub max_frame: usize,
}

impl Limits {
    pub fn new() -> Limits {
        Self { max_frame: 4096 }
    }
}
