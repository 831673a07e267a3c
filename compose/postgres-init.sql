-- Runs once, when the compose Postgres volume is first initialised: one database per
-- service (each service owns its data). The migration steps then create the tables.
CREATE DATABASE esign_auth;
CREATE DATABASE esign_requests;
CREATE DATABASE esign_notifier;
