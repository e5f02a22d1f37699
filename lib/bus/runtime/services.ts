/**
 * Services plugins offer one another through the plugin context: the conversation, the
 * guards' check of a call. A plugin provides a service while it sets up and looks one up
 * when it needs it, so the order of `--plugin` options and of the built-ins never matters.
 */
import { ProxyError } from "../../util/proxy-error.js";

export interface ServiceKey<T> {
  readonly name: string;
  /** Never set: carries the service's type. */
  readonly type?: (service: T) => T;
}

export function serviceKey<T>(name: string): ServiceKey<T> {
  return { name };
}

export class ServiceRegistry {
  private readonly services = new Map<string, unknown>();

  provide<T>(key: ServiceKey<T>, service: T): void {
    if (this.services.has(key.name)) throw new ProxyError(`two plugins provide the service "${key.name}"`);
    this.services.set(key.name, service);
  }

  get<T>(key: ServiceKey<T>): T | undefined {
    return this.services.get(key.name) as T | undefined;
  }
}
