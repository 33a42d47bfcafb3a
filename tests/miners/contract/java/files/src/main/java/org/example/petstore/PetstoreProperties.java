package org.example.petstore;

import java.time.Duration;

@ConfigurationProperties(prefix = "petstore")
public class PetstoreProperties {

    private int pageSize = 10;

    private String greeting = "Welcome";

    private boolean cacheEnabled = true;

    private Duration timeout = Duration.ofSeconds(30);

    private String name;

    private static int created = 0;
}
