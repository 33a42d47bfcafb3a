package com.example.restservice

import java.util.concurrent.atomic.AtomicLong
import org.springframework.web.bind.annotation.*

private const val template = "Hello, %s!"

/** Greets the people who ask, counting them. */
@RestController
@RequestMapping("/api")
class GreetingController {

    companion object {
        const val MAX_NAME = 64
    }

    private val counter = AtomicLong()

    /**
     * A greeting for NAME, numbered.
     *
     * @param name who to greet
     */
    @GetMapping("/greeting")
    fun greeting(@RequestParam name: String = "World") =
        Greeting(counter.incrementAndGet(), template.format(name.take(MAX_NAME)))

    @RequestMapping(value = ["/greetings"], method = [RequestMethod.POST])
    fun record(@RequestBody greeting: Greeting): Greeting {
        return greeting
    }
}

object Greetings {
    fun count(): Long = 0
}
