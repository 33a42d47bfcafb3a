package main

import (
	"github.com/gin-gonic/gin"

	accounts "example.com/shop/api/users"
)

func main() {
	r := gin.Default()
	v1 := r.Group("/api")
	accounts.UsersRegister(v1.Group("/users"))
	r.Run()
}
