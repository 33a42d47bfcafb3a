package main

import (
	"github.com/gin-gonic/gin"

	"example.com/shop/users"
)

func main() {
	r := gin.Default()
	v1 := r.Group("/api")
	users.ProfileRegister(v1.Group("/profiles"))
	r.Run()
}
