package io.jobguard.spring.boot;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.core.env.Environment;

import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Warns at startup about each {@code jobguard.*} property that no job-guard setting binds, such as
 * the typo {@code jobguard.namspace}: Spring Boot ignores unknown keys, so the intended setting
 * would silently keep its default. One WARN per unknown key, with the nearest
 * known property when one is close.
 */
final class UnknownPropertiesCheck implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(UnknownPropertiesCheck.class);

    /** Read by other job-guard modules without a properties class. */
    private static final String QUARTZ_ENABLED = "jobguard.quartz.enabled";

    private final Environment environment;

    UnknownPropertiesCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void afterSingletonsInstantiated() {
        TreeMap<String, String> unknown = unknown(environment);
        unknown.forEach((name, origin) -> {
            String near = nearest(name);
            log.warn("job-guard: property {}{} is not a job-guard setting and is ignored{}", name, origin,
                    near == null ? "" : "; did you mean " + near + "?");
        });
    }

    /** Unknown {@code jobguard.*} property names, with where each was set (" (origin)" or ""). */
    static TreeMap<String, String> unknown(Environment environment) {
        Binder binder = Binder.get(environment);
        TreeMap<String, String> out = new TreeMap<>();
        collect(binder, "jobguard", Bindable.of(JobGuardProperties.class),
                name -> !name.startsWith("jobguard.batch.") && !name.startsWith("jobguard.redis."), out);
        collect(binder, "jobguard.batch", Bindable.of(JobGuardBatchProperties.class), name -> true, out);
        collect(binder, "jobguard.redis", Bindable.of(JobGuardRedisProperties.class), name -> true, out);
        out.remove(QUARTZ_ENABLED);
        return out;
    }

    private static void collect(Binder binder, String root, Bindable<?> target, Predicate<String> mine,
                                TreeMap<String, String> out) {
        try {
            binder.bind(root, target, new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
        } catch (BindException e) {
            if (e.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
                for (ConfigurationProperty p : unbound.getUnboundProperties()) {
                    String name = p.getName().toString();
                    if (mine.test(name)) {
                        out.put(name, p.getOrigin() == null ? "" : " (" + p.getOrigin() + ")");
                    }
                }
            }
            // any other binding failure is reported by Spring Boot's own binding of the properties
        }
    }

    /** The known property closest to {@code name} (edit distance of at most 3), or null. */
    static String nearest(String name) {
        Set<String> known = new TreeSet<>();
        addKnown(known, "jobguard.", JobGuardProperties.class);
        addKnown(known, "jobguard.batch.", JobGuardBatchProperties.class);
        addKnown(known, "jobguard.redis.", JobGuardRedisProperties.class);
        known.add(QUARTZ_ENABLED);
        String best = null;
        int bestDistance = 4;
        for (String candidate : known) {
            int d = distance(name, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Adds each property of the record {@code type}, and of the records nested in it, by its kebab-case name. */
    private static void addKnown(Set<String> known, String prefix, Class<?> type) {
        for (RecordComponent c : type.getRecordComponents()) {
            String name = prefix + c.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
            if (c.getType().isRecord()) {
                addKnown(known, name + ".", c.getType());
            } else {
                known.add(name);
            }
        }
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
