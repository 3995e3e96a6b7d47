/** The error of a dataset name or file that cannot be used (serve --dataset, run --dataset). */
export type DatasetErrorCode = 'DATASET_UNKNOWN' | 'DATASET_INVALID' | 'DATASET_UNREADABLE';

export class DatasetError extends Error {
  override readonly name = 'DatasetError';
  constructor(
    readonly code: DatasetErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
