/** The public face of the webhooks area: what other areas and the wiring may use of it. */
export { fanOutEvents } from './fan-out.js';
export { FAN_OUT_JOB, scheduleWebhookFanOut } from './jobs.js';
export { fanOutOnNotice } from './wake.js';
