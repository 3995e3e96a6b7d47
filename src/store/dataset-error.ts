/** The error of a dataset name or file that cannot be used (serve --dataset, run --dataset). */
import { KitError } from '../errors.js';
export type DatasetErrorCode = 'DATASET_UNKNOWN' | 'DATASET_INVALID' | 'DATASET_UNREADABLE';

export class DatasetError extends KitError {
  override readonly name = 'DatasetError';
  constructor(
    readonly code: DatasetErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
