import { InputError } from '../errors.js';

/** Another process (often a second daemon, or an old one still stopping) holds the address. */
export class MetricsPortInUseError extends InputError {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`metrics port ${port} on ${host} is in use: stop what holds it or set metrics_port`);
  }
}

/** metrics_host names an address this machine does not have. */
export class MetricsHostError extends InputError {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(
      `metrics_host ${JSON.stringify(host)} cannot be listened on ` +
        `(${reason}): use an address of this host, e.g. 127.0.0.1`,
    );
  }
}
