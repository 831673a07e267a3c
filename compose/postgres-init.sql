CREATE DATABASE esign_auth;
CREATE DATABASE esign_requests;
CREATE DATABASE esign_notifier;
