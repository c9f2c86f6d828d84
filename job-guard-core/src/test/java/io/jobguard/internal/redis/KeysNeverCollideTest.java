package io.jobguard.internal.redis;

import io.jobguard.internal.Names;
import io.jobguard.store.JobId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Every name the validator accepts gives keys and release messages no other name
 * gives. Checked exhaustively over all names of up to three characters drawn from letters and every
 * separator job-guard uses; before the namespace rule, namespace {@code a:b} with job {@code c} and
 * namespace {@code a} with job {@code b:c} shared every key.
 */
class KeysNeverCollideTest {

    private static final String[] ALPHABET = {"a", "b", ":", "~", "|", "."};

    @Test
    void distinctNamesGiveDistinctKeysAndMessages() {
        List<String> words = words();
        List<String> namespaces = words.stream().filter(KeysNeverCollideTest::validNamespace).toList();
        List<String> names = words.stream().filter(KeysNeverCollideTest::validName).toList();
        assertThat(namespaces).contains("a", "a.b").doesNotContain("a:b", "a~b", "a|b");
        assertThat(names).contains("b:c".replace('c', 'a'), "a~b", "a|b", ":");

        KeySchema keys = new KeySchema("jg");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Map<String, String> owners = new HashMap<>();
        Map<String, String> messages = new HashMap<>();
        claim(owners, keys.fleetLeads(), "fleet leads");
        for (String tag : List.of("s0", "s1a", "sz9")) {
            claim(owners, keys.fleetLeads(tag), "fleet leads of a cluster master");
        }
        claim(owners, keys.prefix() + ":batch-mode", "batch mode");
        for (String ns : namespaces) {
            claim(owners, keys.batchFence(ns), "batch " + ns);
            claim(owners, keys.batchHeld(keys.batchBase(ns)), "batch " + ns);
            claim(messages, keys.batchReleaseTopic(ns), "batch " + ns);
            for (String name : names) {
                JobId job = new JobId(ns, name);
                String owner = "job " + ns + " / " + name;
                for (KeySchema.JobKey kind : KeySchema.JobKey.values()) {
                    claim(owners, keys.of(job, kind), owner);
                }
                claim(owners, keys.fireMarker(job, t), owner);
                claim(owners, keys.shedLock(ns, name), "shedlock " + ns + " / " + name);
                claim(messages, keys.runReleaseTopic(job), owner);
            }
        }
        assertThat(owners).hasSizeGreaterThan(10_000);
    }

    private static void claim(Map<String, String> owners, String key, String owner) {
        String before = owners.putIfAbsent(key, owner);
        if (before != null && !before.equals(owner)) {
            fail("'" + key + "' belongs to both " + before + " and " + owner);
        }
    }

    private static List<String> words() {
        List<String> out = new ArrayList<>(List.of(ALPHABET));
        for (int length = 2; length <= 3; length++) {
            List<String> longer = new ArrayList<>();
            for (String w : out) {
                if (w.length() == length - 1) {
                    for (String c : ALPHABET) {
                        longer.add(w + c);
                    }
                }
            }
            out.addAll(longer);
        }
        return out;
    }

    private static boolean validNamespace(String value) {
        try {
            Names.namespace(value, "namespace");
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean validName(String value) {
        try {
            Names.name(value, "job name");
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
