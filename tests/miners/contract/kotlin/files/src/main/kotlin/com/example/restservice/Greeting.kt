package com.example.restservice

/** What a greeting says, and its number. */
data class Greeting(val id: Long, val content: String)

interface GreetingRepository {
    fun findByContent(content: String): Greeting?
}
