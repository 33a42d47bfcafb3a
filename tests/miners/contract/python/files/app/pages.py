from django.core.paginator import Paginator


def paginate(request, items):
    paginator = Paginator(items, 12)
    for i in range(10):
        print(i, 20)
    return paginator.page(request.GET.get("page"))
