#!/bin/sh
# One-shot MinIO setup for docker-compose: the screenshot bucket, anonymous read of its objects
# only (screenshot URLs are handed to API clients; listing the bucket stays private), and a renderer
# user that may write there and nowhere else. Idempotent, so `docker compose up` can rerun it.
set -eu
mc alias set local http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD"
mc mb --ignore-existing "local/$S3_BUCKET"
mc anonymous set-json /policies/screenshots-public-read.json "local/$S3_BUCKET"
mc admin policy create local screenshots-writer /policies/screenshots-writer.json
mc admin user add local "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY"
mc admin policy attach local screenshots-writer --user "$S3_ACCESS_KEY_ID" || true # already attached on a rerun
echo "bucket $S3_BUCKET ready"
