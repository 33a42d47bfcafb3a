use clap::Parser;

#[derive(Parser, Debug)]
#[command(name = "mini-cli")]
struct Cli {
    #[clap(subcommand)]
    command: Command,

    /// The server's host
    #[arg(id = "hostname", long, default_value = "127.0.0.1")]
    host: String,

    #[arg(long, default_value_t = 6379)]
    port: u16,

    #[arg(long)]
    password: Option<String>,
}
