/* two_subscribers_san.c - the Sanitizer API side of two_subscribers.cu:
 * subscribe, enable the launch domain, count LAUNCH_BEGIN callbacks. */
#include <stdio.h>
#include <sanitizer.h>

int sanitizer_launches;
void sub_sanitizer(void);

static void SANITIZERAPI on_sanitizer(void *u, Sanitizer_CallbackDomain dom,
				      Sanitizer_CallbackId id, const void *d)
{
	(void)u;
	(void)d;
	if (dom == SANITIZER_CB_DOMAIN_LAUNCH &&
	    id == SANITIZER_CBID_LAUNCH_BEGIN)
		sanitizer_launches++;
}

void sub_sanitizer(void)
{
	Sanitizer_SubscriberHandle h;
	SanitizerResult r = sanitizerSubscribe(&h, on_sanitizer, NULL);
	const char *s = "";

	if (r == SANITIZER_SUCCESS)
		r = sanitizerEnableDomain(1, h, SANITIZER_CB_DOMAIN_LAUNCH);
	sanitizerGetResultString(r, &s);
	printf("sanitizerSubscribe: %s\n", s);
}
