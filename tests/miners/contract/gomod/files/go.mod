module github.com/example/realworld

go 1.22

require (
	github.com/gin-gonic/gin v1.9.1
	golang.org/x/crypto v0.21.0 // indirect
)
