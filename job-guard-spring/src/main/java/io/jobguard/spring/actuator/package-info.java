/**
 * The {@code jobguard} Spring Boot Actuator endpoint and health indicator.
 *
 * <ul>
 *   <li>The endpoint: {@link io.jobguard.spring.actuator.JobGuardEndpoint} shows this node, the jobs it guards and,
 *       cluster-wide, each job's live run lease and recent fires, registered by
 *       {@link io.jobguard.spring.actuator.JobGuardEndpointAutoConfiguration}. Behind it, package-private:
 *       {@code JobSummaries} (the jobs this node guards, contributors included), {@code JobHistoryView} (what the
 *       store says about one job, the one place the store's optional capabilities are asked), {@code ClusterNodes}
 *       (the nodes seen in those records), {@code BatchLeaseView} (the live batch leases of the namespaces this node
 *       knows), {@code StoreReadings} (clock skew and the recovery from a data loss, shared with the health
 *       indicator), {@code JobControl} (the write side: pause, resume, run-now, retry; {@code OptionalFireTime} lets requests
 *       without a fire time through) and {@code JobGuardDashboard} (the
 *       dashboard page, served by the endpoint itself so whatever protects the endpoint protects it).
 *       {@code JobHistoryQueries} answers the run history ({@code /{job}/history/json}, {@code csv}, {@code ndjson}):
 *       filters, pages by cursor, exports streamed a page at a time; {@code Nullable} marks its optional request
 *       parameters for Boot 4 and Boot 3.5 alike.
 *       {@link io.jobguard.spring.actuator.HeldLocksSource} is the locks held through job-guard's ShedLock provider,
 *       a separate type so the endpoint loads without ShedLock.</li>
 *   <li>Read-only writes: {@code ReadOnlyWrites} answers a write on the read-only endpoint with HTTP 405 and a JSON
 *       body naming the settings that turn it on, on Spring MVC through {@code ForceReleaseNotMappedResolver} and on
 *       WebFlux through {@code ReadOnlyWriteWebFluxHandler}.</li>
 *   <li>Health: {@link io.jobguard.spring.actuator.JobGuardHealthCheck} is what the indicator reports (store reachable,
 *       clock within the skew tolerance), apart from Boot's types;
 *       {@link io.jobguard.spring.actuator.JobGuardHealthIndicator} is that reading as Boot 4's {@code Health},
 *       registered by {@link io.jobguard.spring.actuator.JobGuardHealthAutoConfiguration}.</li>
 *   <li>Native builds: {@code ActuatorRuntimeHints} registers the endpoint's JSON records and the dashboard's files
 *       for Spring AOT.</li>
 * </ul>
 */
package io.jobguard.spring.actuator;
