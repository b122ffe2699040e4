/** A refusal meant for the operator at the console: printed as it is, without a stack trace. */
export class MaintenanceError extends Error {}
