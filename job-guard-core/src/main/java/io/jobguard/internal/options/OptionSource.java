package io.jobguard.internal.options;

/**
 * One source of a job's options (per-job properties, a {@code JobDataMap}, the global defaults): the
 * value it sets for an attribute, and how a message names where that value came from.
 */
public interface OptionSource {

    /** A source that sets nothing. */
    OptionSource NONE = new OptionSource() {
        @Override
        public Object value(JobAttribute attribute, String job) {
            return null;
        }

        @Override
        public String label(JobAttribute attribute, String job) {
            return attribute.element();
        }
    };

    /**
     * The value this source sets.
     *
     * @param attribute the attribute
     * @param job       the job's resolved name, or null while the name itself is resolved
     * @return a {@code String}, {@code Duration}, {@code Number}, {@code Boolean} or enum constant; null
     *         (or a blank string) when this source sets nothing
     */
    Object value(JobAttribute attribute, String job);

    /**
     * Where the value comes from, as a message names it: {@code jobguard.jobs.nightly.lease},
     * {@code JobDataMap entry jobguard.lease}.
     *
     * @param attribute the attribute
     * @param job       the job's resolved name, or null while the name itself is resolved
     * @return the label
     */
    String label(JobAttribute attribute, String job);
}
