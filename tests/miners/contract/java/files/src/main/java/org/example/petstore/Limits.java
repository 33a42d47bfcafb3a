package org.example.petstore;

import java.time.Duration;
import java.util.Map;

final class Limits {

    /** What a request may carry. */
    static final Map<String, Integer> DEFAULTS = Map.of("pageSize", 20, "maxUpload", 10 * 1024);
    static final Map<String, Object> CACHE = Map.ofEntries(Map.entry("ttl", "PT10M"));
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final String NO_OWNER = null;
    private static final Logger log = LoggerFactory.getLogger(Limits.class);
}
